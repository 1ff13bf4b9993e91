// PUT /api/classes/{class_id}/attendance/{date}
import { recordRoute } from '../../shared/record-routes';
import { putRegister } from '../../shared/records/class-register';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('put-class-register'), (request) =>
  putRegister(request, recordWriter()),
);
