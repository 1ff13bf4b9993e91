// PUT /api/staffs/{staff_id}
import { replaceRecord } from '../../shared/records/write-records';
import { staffInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-staffs', (request) =>
  replaceRecord('staffs', staffInsertRequest(), request, recordWriter()),
);
