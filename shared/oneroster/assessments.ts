// The OneRoster 1.2 Gradebook binding's assessment line items and results, read as its line items and
// results are (gradebook.ts): paged in sourcedId order, walked for a filter or a delta, read whole only to
// sort by another field. An assessment is the native one (`/api/assessment_line_items`), of a class or of
// none, on its score scale where that is a class's; a result names its student by their user. Kept apart
// from the line items' reads, so that their handlers bundle none of this.
import type { Deletion } from '../data/pages';
import type { ApiRequest } from '../exchange';
import type { AssessmentLineItem } from '../schemas/records';
import { classScaleIds, getObject, listObjects, maker, ofStudentUsers } from './gradebook';
import type { OneRosterAssessmentLineItem, OneRosterAssessmentResult } from './objects';
import type { RosterReader, WalkEntry } from './roster-reader';
import type { Placed } from './walk';

/** Assessments as objects, each on its score scale where that is a class's. */
async function assessmentObjects(
  request: ApiRequest,
  reader: RosterReader,
  entries: readonly WalkEntry[],
): Promise<Placed<OneRosterAssessmentLineItem>[]> {
  const make = maker(request);
  const scales = await classScaleIds(
    reader,
    entries.flatMap((e) =>
      e.kind === 'changed' ? ((e.record as AssessmentLineItem).score_scale_id ?? []) : [],
    ),
  );
  return entries.map((entry) => {
    if (entry.kind === 'deleted') {
      const { id, deleted_at, kept } = entry.deletion as Deletion<'assessment_line_items'>;
      return { position: entry.position, object: make.deletedAssessmentLineItem(id, deleted_at, kept) };
    }
    const item = entry.record as AssessmentLineItem;
    return {
      position: entry.position,
      object: make.assessmentLineItem(item, scales.has(item.score_scale_id ?? '')),
    };
  });
}

/** Assessment results as objects, each naming its student by their user, as a result does. */
function assessmentResultObjects(
  request: ApiRequest,
  reader: RosterReader,
  entries: readonly WalkEntry[],
): Promise<Placed<OneRosterAssessmentResult>[]> {
  const make = maker(request);
  return ofStudentUsers<'assessment_results', OneRosterAssessmentResult>(reader, entries, {
    changed: (result, user) => make.assessmentResult(result, user),
    deleted: ({ id, deleted_at, kept }, user) => make.deletedAssessmentResult(id, deleted_at, kept, user),
  });
}

/** GET /assessmentLineItems. */
export const listAssessmentLineItems = (request: ApiRequest, reader: RosterReader) =>
  listObjects(request, reader, 'assessment_line_items', 'assessmentLineItems', assessmentObjects);

/** GET /assessmentLineItems/{sourcedId}. */
export const getAssessmentLineItem = (request: ApiRequest, reader: RosterReader) =>
  getObject(
    request,
    reader,
    'assessment_line_items',
    ['assessmentLineItems', 'assessmentLineItem'],
    assessmentObjects,
  );

/** GET /assessmentResults. */
export const listAssessmentResults = (request: ApiRequest, reader: RosterReader) =>
  listObjects(request, reader, 'assessment_results', 'assessmentResults', assessmentResultObjects);

/** GET /assessmentResults/{sourcedId}. */
export const getAssessmentResult = (request: ApiRequest, reader: RosterReader) =>
  getObject(
    request,
    reader,
    'assessment_results',
    ['assessmentResults', 'assessmentResult'],
    assessmentResultObjects,
  );
