// PUT /api/staffs/{staff_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { staffInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-staffs'), (request) =>
  replaceRecord('staffs', staffInsertRequest(), request, recordWriter()),
);
