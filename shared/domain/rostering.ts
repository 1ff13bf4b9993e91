// The closed vocabularies of the rostering groups, as OneRoster 1.2 names them (its enumerations for
// org types, academic session types, class types and enrollment roles), shared by the request and
// response schemas and the OneRoster binding.

/** An organisation's kind; a district holds schools, a school may hold departments. */
export const orgTypes = ['district', 'school', 'department', 'local', 'state', 'national'] as const;
export type OrgType = (typeof orgTypes)[number];

export const academicSessionTypes = ['school_year', 'term', 'semester', 'grading_period'] as const;
export type AcademicSessionType = (typeof academicSessionTypes)[number];

export const classTypes = ['homeroom', 'scheduled'] as const;
export type ClassType = (typeof classTypes)[number];

/** What a person is in a class; OneRoster 1.2 names administrator, proctor, student and teacher, 1.1 also aide. */
export const enrollmentRoles = ['student', 'teacher', 'aide', 'administrator', 'proctor'] as const;
export type EnrollmentRole = (typeof enrollmentRoles)[number];
