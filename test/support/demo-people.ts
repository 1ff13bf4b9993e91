// What tests of who reads and writes what ask about the demo accounts: each account's token (issued once
// a file), its entity, the classes it is enrolled in by role, its student records or those in its care,
// a class's students, the class the demo teacher teaches the demo student, and the audit events of one
// response. `api` is read when asked, so a file makes
// these before its `beforeAll` starts the API.
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { AuditEvent } from '../../shared/audit/audit-event';
import type { Entity } from '../../shared/schemas/records';
import type { TestApi } from './test-api';

export function demoPeople(api: () => TestApi) {
  const tokens = new Map<string, string>();

  /** An access token for a demo account, as the code flow issues it. */
  async function tokenOf(username: string): Promise<string> {
    const token = tokens.get(username) ?? (await api().personToken(username));
    tokens.set(username, token);
    return token;
  }

  /** A person's entity, by their account. */
  async function entityOf(username: string): Promise<Entity> {
    const user = await api().users.byLogin(username);
    return (await api().records.get('entities', user?.entity_id as string))?.record as Entity;
  }

  /** The classes an account is enrolled in, with a role. */
  async function classesOf(username: string, role: string): Promise<Set<string>> {
    const entity = await entityOf(username);
    const enrollments = await api().records.enrollmentsOfPerson(entity.entity_id);
    return new Set(enrollments.filter((e) => e.role === role).map((e) => e.class_id));
  }

  /** The student records of an account, or of the students in its care. */
  async function studentsOf(username: string, through: 'student' | 'tutor'): Promise<Set<string>> {
    const roles = (await entityOf(username)).roles.filter((r) => r.role === through);
    if (through === 'student') return new Set(roles.map((r) => r.id));
    const tutors = await Promise.all(roles.map((r) => api().records.get('tutors', r.id)));
    return new Set(
      tutors.flatMap((t) => (t?.record as { student_ids: string[] } | undefined)?.student_ids ?? []),
    );
  }

  /** The students of a class, by their student records, from its enrollments. */
  async function studentsOfClass(classId: string): Promise<string[]> {
    const enrollments = await api().records.enrollmentsOfClass(classId);
    const entities = new Set(enrollments.filter((e) => e.role === 'student').map((e) => e.entity_id));
    const response = await api().get('/api/students?items_per_page=500');
    const students = ((await response.json()) as { students: { student_id: string; entity_id: string }[] })
      .students;
    return students.filter((s) => entities.has(s.entity_id)).map((s) => s.student_id);
  }

  /** A class the demo teacher teaches and the demo student is in, and the demo student's record. */
  async function sharedClass(): Promise<{ classId: string; studentId: string }> {
    const [taught, learning, students] = await Promise.all([
      classesOf('teacher', 'teacher'),
      classesOf('student', 'student'),
      studentsOf('student', 'student'),
    ]);
    const classId = [...taught].find((id) => learning.has(id)) as string;
    expect(classId, 'the demo teacher teaches the demo student').toBeDefined();
    return { classId, studentId: [...students][0] as string };
  }

  /** A student record of someone the class does not enroll as a student. */
  async function studentNotInClass(classId: string): Promise<string> {
    const enrolled = new Set(await studentsOfClass(classId));
    const response = await api().get('/api/students?items_per_page=500');
    const students = ((await response.json()) as { students: { student_id: string }[] }).students;
    return students.map((s) => s.student_id).find((id) => !enrolled.has(id)) as string;
  }

  /** The audit events of one response, by its x-request-id. */
  async function auditEventsOf(response: Response): Promise<AuditEvent[]> {
    const id = response.headers.get('x-request-id');
    return (await readFile(api().auditLogFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { audit: AuditEvent }).audit)
      .filter((event) => event.request_id === id);
  }

  return {
    tokenOf,
    entityOf,
    classesOf,
    studentsOf,
    studentsOfClass,
    sharedClass,
    studentNotInClass,
    auditEventsOf,
  };
}
