// The two read operations every record group shares: a page of the list, and one record by id.
import { decodeCursor } from '../data/cursor';
import { idFields, type RecordGroup } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../http/api';
import { BadRequestError, NotFoundError } from '../http/errors';
import { listBody, parsePaging } from '../http/paging';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listRecords(group: RecordGroup, { query, services }: ApiRequest): Promise<ApiResponse> {
  const { page, itemsPerPage, cursor } = parsePaging(query);
  const { tenantId } = services.config;
  const position = cursor === undefined ? undefined : decodeCursor(cursor, tenantId, group);
  const [result, totalItems] = await Promise.all([
    services.records.listPage(group, {
      itemsPerPage,
      after: position?.after,
      skip: position ? undefined : (page - 1) * itemsPerPage,
    }),
    services.records.count(group),
  ]);
  return {
    rawBody: listBody({
      tenantId,
      group,
      idField: idFields[group],
      records: result.items,
      hasMore: result.hasMore,
      page: position?.page ?? page,
      itemsPerPage,
      totalItems,
    }),
  };
}

export async function getRecord(group: RecordGroup, { path, services }: ApiRequest): Promise<ApiResponse> {
  const idField = idFields[group];
  const id = path[idField] ?? '';
  if (!UUID.test(id)) {
    throw new BadRequestError(`${idField} must be a UUID.`, [
      { name: idField, in: 'path', reason: 'not a UUID' },
    ]);
  }
  const record = await services.records.get(group, id.toLowerCase());
  if (!record) throw new NotFoundError(`No ${group} record has ${idField} ${id}.`);
  return { body: record };
}
