// The OneRoster 1.2 Gradebook binding's assessment writes: PUT makes an assessment line item or result
// under the sourcedId its path names, or replaces the one that has it (201), through the native writes of
// `assessment_line_items` and `assessment_results`, as the gradebook's other objects are written
// (gradebook-writes.ts). An assessment keeps its class; a result's class is its assessment's, its student
// the user's student record. A learning objective set, which the service does not keep, is not read.
import * as z from 'zod/mini';
import { isUuid } from '../domain/identifiers';
import type { ApiRequest, ApiResponse } from '../exchange';
import { refuseStudentNotInClass } from '../records/class-students';
import type { RecordWriter } from '../records/record-writer';
import { putRecord } from '../records/write-records';
import { assessmentLineItemInsertRequest, assessmentResultInsertRequest } from '../schemas/requests';
import {
  base,
  bothWays,
  chosenId,
  day,
  gradeOf,
  lower,
  objectOf,
  putAnswer,
  ref,
  refused,
  studentNamed,
  withinProfile,
} from './gradebook-writes';

const assessmentLineItemBody = () =>
  z.object({
    assessmentLineItem: z.object({
      ...base(),
      title: z.string(),
      description: z.optional(z.string()),
      class: z.optional(ref()),
      parentAssessmentLineItem: z.optional(ref()),
      scoreScale: z.optional(ref()),
      resultValueMin: z.optional(z.number()),
      resultValueMax: z.optional(z.number()),
    }),
  });

const assessmentResultBody = () =>
  z.object({
    assessmentResult: z.object({
      ...base(),
      assessmentLineItem: ref(),
      student: ref(),
      score: z.optional(z.number()),
      textScore: z.optional(z.string()),
      scoreDate: day(),
      scorePercentile: z.optional(z.number()),
      scoreStatus: z.string(),
      comment: z.optional(z.string()),
    }),
  });

/** PUT /assessmentLineItems/{sourcedId}: its class, where it names one, stays its class. */
export async function putAssessmentLineItem(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const item = objectOf(assessmentLineItemBody(), 'assessmentLineItem', request, id);
  await putRecord(
    'assessment_line_items',
    id,
    assessmentLineItemInsertRequest(),
    request,
    writer,
    bothWays((current) =>
      withinProfile(
        request,
        'assessmentLineItems',
        [{ name: 'assessmentLineItem', body: item }],
        {
          class_id: item.class?.sourcedId ?? null,
          parent_id: item.parentAssessmentLineItem?.sourcedId ?? null,
          title: item.title,
          description: item.description ?? '',
          // A tenant's scale, which the binding does not serve, is kept when the body names none.
          score_scale_id: item.scoreScale?.sourcedId ?? current?.score_scale_id ?? null,
          result_value_min: item.resultValueMin ?? null,
          result_value_max: item.resultValueMax ?? null,
        },
        current,
      ),
    ),
  );
  return putAnswer(request, 'assessmentLineItems', id);
}

/** PUT /assessmentResults/{sourcedId}: for an assessment, its class the assessment's, its student a student user. */
export async function putAssessmentResult(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const result = objectOf(assessmentResultBody(), 'assessmentResult', request, id);
  const assessmentId = lower(result.assessmentLineItem.sourcedId);
  const assessment = isUuid(assessmentId)
    ? (await writer.records.get('assessment_line_items', assessmentId))?.record
    : undefined;
  if (!assessment) {
    throw refused(
      'assessmentResult.assessmentLineItem',
      'names no assessment line item',
      "An assessment result's assessmentLineItem must name an assessment line item.",
    );
  }
  const studentId = await studentNamed(
    writer.records,
    'assessmentResult',
    result.student.sourcedId,
    'An assessment result',
  );
  await putRecord('assessment_results', id, assessmentResultInsertRequest(), request, writer, {
    ...bothWays((current) =>
      withinProfile(
        request,
        'assessmentResults',
        [{ name: 'assessmentResult', body: result }],
        {
          class_id: assessment.class_id,
          assessment_line_item_id: assessmentId,
          student_id: studentId,
          ...gradeOf(result),
          score_percentile: result.scorePercentile ?? null,
        },
        current,
      ),
    ),
    check: refuseStudentNotInClass,
  });
  return putAnswer(request, 'assessmentResults', id);
}
