// The record writer of the bulk import (`npm run import`, the district seed): the service's writer, and
// new records created many to a transaction. Kept out of shared/records so that no function's bundle
// carries what only an import does.
import type { StoredRecord } from '../../shared/data/record-items';
import { DomainError } from '../../shared/domain/errors';
import type { RecordGroup } from '../../shared/domain/groups';
import { MAX_TRANSACTION_ACTIONS, RecordWriter } from '../../shared/records/record-writer';
import { mergeSteps, packWrites } from '../../shared/records/transaction-packs';
import { commit, Retry } from '../../shared/records/write-transaction';
import type { InsertRequest } from '../../shared/schemas/requests';

export class ImportWriter extends RecordWriter {
  /**
   * Creates records of one group under the ids given, as few transactions as DynamoDB allows rather
   * than one each: each transaction holds whole records and every item of theirs, the changes that add
   * up to one item (a class's enrollments, a group's count) merged into one. A record is answered
   * undefined when its transaction did not commit or its request was refused: nothing of it was written,
   * and `create` tells why.
   */
  async createMany<G extends RecordGroup>(
    group: G,
    requests: readonly { input: InsertRequest<G>; id: string }[],
  ): Promise<(StoredRecord<G> | undefined)[]> {
    const context = this.context();
    const planned = requests.flatMap(({ input, id }, index) => {
      // A request its rules refuse is left to `create`, which says why.
      try {
        return [{ index, ...this.newRecord(group, input, id, context) }];
      } catch {
        return [];
      }
    });
    const outcomes: (StoredRecord<G> | undefined)[] = requests.map(() => undefined);
    const counted = planned.map((p) => ({ ...p, steps: [...p.steps, this.steps.count(group, 1)] }));
    for (const pack of packWrites(counted, MAX_TRANSACTION_ACTIONS)) {
      try {
        await commit(this.db, mergeSteps(pack.flatMap((p) => p.steps)));
      } catch (error) {
        if (!(error instanceof DomainError || error instanceof Retry)) throw error;
        continue;
      }
      for (const { index, created } of pack) outcomes[index] = created;
    }
    return outcomes;
  }
}
