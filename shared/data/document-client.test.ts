import { describe, expect, it } from 'vitest';
import { createDocumentClient } from './document-client';

describe('the document client', () => {
  it("has no SDK logger step, which would filter every response into a log line nobody writes, and keeps the SDK's other steps", () => {
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:8000' });
    const steps = db.middlewareStack.identify();
    expect(steps.filter((step) => step.startsWith('loggerMiddleware'))).toEqual([]);
    expect(steps).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^retryMiddleware/),
        expect.stringMatching(/^serializerMiddleware/),
        expect.stringMatching(/^deserializerMiddleware/),
      ]),
    );
    db.destroy();
  });
});
