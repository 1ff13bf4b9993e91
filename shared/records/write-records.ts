// The write operations every record group shares: create, replace, delete, and add an identification
// document. Bodies are validated against the group's insert request before anything is written.
import { subjectOf } from '../audit/audit-event';
import { etag } from '../data/record-items';
import { type DocumentGroup, idFields, type RecordGroup } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import type { ApiRequest, ApiResponse } from '../http/exchange';
import { parseEntityTags } from '../http/preconditions';
import { header } from '../http/request';
import { validateBody } from '../http/validate';
import { IdentificationDocumentInsertRequest, insertRequests } from '../schemas/requests';
import { recordId } from './record-id';
import type { RecordWriter } from './record-writer';
import { sensitiveView } from './sensitive-fields';

/** Every field name a client may send, to suggest the right one for a misspelt field. */
export const knownFields = [
  ...new Set([
    ...Object.values(recordFields).flat(),
    ...Object.keys(IdentificationDocumentInsertRequest.shape),
    'bank_accounts',
    'back_account_number',
    'country_name',
    'entity_bank_account_type',
    'address2',
    'zone_code',
    'postal_code',
    'contact_type_name',
  ]),
];

const ifMatch = (request: ApiRequest) => parseEntityTags('if-match', header(request.event, 'if-match'));

const locationOf = (request: ApiRequest, group: RecordGroup, id: string) =>
  `${request.config.publicBaseUrl}/api/${group}/${id}`;

export async function createRecord(
  group: RecordGroup,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  const input = validateBody(insertRequests[group], request.body, knownFields);
  const { record, version } = await writer.create(group, input);
  const id = (record as Record<string, unknown>)[idFields[group]] as string;
  return {
    status: 201,
    headers: { location: locationOf(request, group, id), etag: etag(version) },
    body: sensitiveView(request.auth, group)(record),
    audit: subjectOf(idFields[group], [record]),
  };
}

export async function replaceRecord(
  group: RecordGroup,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const condition = ifMatch(request);
  const input = validateBody(insertRequests[group], request.body, knownFields);
  const { record, version } = await writer.replace(group, id, input, condition);
  return {
    headers: { etag: etag(version) },
    body: sensitiveView(request.auth, group)(record),
    audit: subjectOf(idFields[group], [record]),
  };
}

export async function deleteRecord(
  group: RecordGroup,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const removed = await writer.remove(group, id, ifMatch(request));
  return { status: 204, audit: subjectOf(idFields[group], [removed]) };
}

export async function addDocument(
  group: DocumentGroup,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const condition = ifMatch(request);
  const document = validateBody(IdentificationDocumentInsertRequest, request.body, knownFields);
  const { record, version } = await writer.addDocument(group, id, document, condition);
  return {
    status: 201,
    headers: { location: locationOf(request, group, id), etag: etag(version) },
    body: sensitiveView(request.auth, group)(record),
    audit: subjectOf(idFields[group], [record]),
  };
}
