// The closed vocabulary of attendance, shared by the request and response schemas.

/** How a student attended a class, or a school day: the four marks a register takes. */
export const attendanceStatuses = ['present', 'absent', 'tardy', 'excused'] as const;
export type AttendanceStatus = (typeof attendanceStatuses)[number];
