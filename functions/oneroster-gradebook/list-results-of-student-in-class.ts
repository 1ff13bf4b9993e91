// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/students/{studentSourcedId}/results
import { listResultsOfStudentInClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-results-of-student-in-class', (request) =>
  listResultsOfStudentInClass(request, rosterReader(request)),
);
