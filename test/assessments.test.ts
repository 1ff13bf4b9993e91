// Assessments and their results (docs/api.md, "Assessments"; docs/oneroster.md, "Assessments"): the native
// groups, who reads them (staff and administrators; no teacher, student or guardian yet; no client
// registered with schools), the rules of their references, and the OneRoster 1.2 Gradebook binding's
// assessmentLineItems and assessmentResults read and written by a stock client, every response checked
// against 1EdTech's published OpenAPI file of the binding (test/fixtures/oneroster/).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneRosterScopes } from '../shared/domain/groups';
import { demoPeople } from './support/demo-people';
import { registeredClient } from './support/oauth';
import { bindingBody, bindingRef, validResponse } from './support/oneroster-binding';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/gradebook/v1p2';
const USERS = '/ims/oneroster/rostering/v1p2/users';
/** The demo's national assessment (infra/local/seed/gradebook.ts). */
const DEMO_ASSESSMENT = 'Provas de Aferição 2026';

let api: TestApi;
const { tokenOf, sharedClass, studentNotInClass, studentsOf } = demoPeople(() => api);
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Obj = { sourcedId: string } & Row;

const json = async <T = Row>(response: Response, status = 200): Promise<T> => {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : {}) as T;
};

/** Every native record of a group, page by page. */
async function everyNative(group: string, token?: string): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | undefined = `/api/${group}?items_per_page=500`;
  while (next) {
    const page: Row = await json(await api.get(next, { token }));
    rows.push(...(page[group] as Row[]));
    next = page.next_cursor ? `/api/${group}?items_per_page=500&cursor=${page.next_cursor}` : undefined;
  }
  return rows;
}

const ref = (type: string, sourcedId: unknown, path: string) => bindingRef(api.url, type, sourcedId, path);

describe('the native assessment line items and results', () => {
  it('hold the demo’s national assessment: a whole of no class, its parts, every student’s result in each', async () => {
    const items = await everyNative('assessment_line_items');
    const whole = items.find((i) => i.title === DEMO_ASSESSMENT) as Row;
    const parts = items.filter((i) => i.parent_id === whole.assessment_line_item_id);
    expect(parts).toHaveLength(2);
    for (const item of [whole, ...parts]) expect(item.class_id).toBeNull();
    const results = await everyNative('assessment_results');
    const students = await everyNative('students');
    for (const part of parts) {
      const its = results.filter((r) => r.assessment_line_item_id === part.assessment_line_item_id);
      expect(new Set(its.map((r) => r.student_id))).toEqual(new Set(students.map((s) => s.student_id)));
      for (const r of its) {
        expect(r.score_percentile).toBeGreaterThanOrEqual(0);
        expect(r.score_percentile).toBeLessThanOrEqual(100);
      }
    }
  });

  it('are read whole by staff; their results by a student their own, a guardian their children’s, a teacher none', async () => {
    const all = await everyNative('assessment_results');
    const items = await everyNative('assessment_line_items');
    const readable: Record<string, Set<string>> = {
      staff: new Set(all.map((r) => r.student_id as string)),
      student: await studentsOf('student', 'student'),
      guardian: await studentsOf('guardian', 'tutor'),
      teacher: new Set(),
    };
    for (const [username, students] of Object.entries(readable)) {
      const token = await tokenOf(username);
      // Every member of the school reads the assessments whole, as the calendar.
      expect(await everyNative('assessment_line_items', token), username).toEqual(items);
      const theirs = all.filter((r) => students.has(r.student_id as string));
      expect(await everyNative('assessment_results', token), username).toEqual(theirs);
      if (username !== 'staff') expect(theirs.length, username).toBeLessThan(all.length);
      const other = all.find((r) => !students.has(r.student_id as string));
      if (other) {
        expect(
          (await api.get(`/api/assessment_results/${other.assessment_result_id}`, { token })).status,
        ).toBe(404);
      }
      for (const result of theirs) {
        expect(
          await json(await api.get(`/api/assessment_results/${result.assessment_result_id}`, { token })),
        ).toEqual(result);
      }
    }
    expect(readable.student?.size).toBeGreaterThan(0);
    expect(readable.guardian?.size).toBeGreaterThan(0);
    // Nobody but an administrator writes one.
    for (const username of ['staff', 'teacher', 'student', 'guardian']) {
      const token = await tokenOf(username);
      const made = await api.send('POST', '/api/assessment_line_items', { title: 'Prova' }, { token });
      expect(made.status, username).toBe(403);
    }
  });

  it('keep an assessment result’s class to its assessment’s, none for an assessment of no class, and its student to the class’s', async () => {
    const { classId, studentId } = await sharedClass();
    const ofNoClass = await json(
      await api.send('POST', '/api/assessment_line_items', { title: 'Prova global', result_value_max: 20 }),
      201,
    );
    const ofClass = await json(
      await api.send('POST', '/api/assessment_line_items', {
        title: 'Prova da turma',
        class_id: classId,
        parent_id: ofNoClass.assessment_line_item_id,
      }),
      201,
    );
    const grade = {
      student_id: studentId,
      status: 'fully graded',
      score: 14,
      score_date: '2027-01-15',
    };
    const before = await everyNative('assessment_results');
    for (const wrong of [
      { ...grade, assessment_line_item_id: ofNoClass.assessment_line_item_id, class_id: classId },
      { ...grade, assessment_line_item_id: ofClass.assessment_line_item_id },
      { ...grade, assessment_line_item_id: ofClass.assessment_line_item_id, class_id: randomUUID() },
      {
        ...grade,
        assessment_line_item_id: ofClass.assessment_line_item_id,
        class_id: classId,
        student_id: await studentNotInClass(classId),
      },
    ]) {
      const problem = await json(await api.send('POST', '/api/assessment_results', wrong), 400);
      expect(JSON.stringify(problem)).toMatch(/assessment_line_item_id|class_id|student_id/);
    }
    expect(await everyNative('assessment_results')).toEqual(before);
    const made = await json(
      await api.send('POST', '/api/assessment_results', {
        ...grade,
        assessment_line_item_id: ofClass.assessment_line_item_id,
        class_id: classId,
        score_percentile: 87.5,
      }),
      201,
    );
    expect(made).toMatchObject({ class_id: classId, score_percentile: 87.5 });
    // One result a student and assessment.
    const second = await api.send('POST', '/api/assessment_results', {
      ...grade,
      assessment_line_item_id: ofClass.assessment_line_item_id,
      class_id: classId,
    });
    expect(second.status).toBe(409);
    // An assessment keeps its class, is not its own parent, and is not deleted while a result names it.
    const moved = await api.send('PUT', `/api/assessment_line_items/${ofClass.assessment_line_item_id}`, {
      title: 'Prova da turma',
      class_id: null,
    });
    expect(moved.status).toBe(409);
    const ownParent = await api.send(
      'PUT',
      `/api/assessment_line_items/${ofNoClass.assessment_line_item_id}`,
      {
        title: 'Prova global',
        parent_id: ofNoClass.assessment_line_item_id,
      },
    );
    expect(ownParent.status).toBe(400);
    expect(
      (await api.send('DELETE', `/api/assessment_line_items/${ofClass.assessment_line_item_id}`)).status,
    ).toBe(409);
    const percentile = await api.send('POST', '/api/assessment_results', {
      ...grade,
      student_id: (await everyNative('students'))[1]?.student_id,
      assessment_line_item_id: ofNoClass.assessment_line_item_id,
      score_percentile: 101,
    });
    expect(percentile.status).toBe(400);
  });

  it('form a tree: no cycle, however long or however raced, and no deeper than 20 levels', async () => {
    const make = async (title: string, parent: unknown = null) =>
      (await json(await api.send('POST', '/api/assessment_line_items', { title, parent_id: parent }), 201))
        .assessment_line_item_id as string;
    const move = (id: string, parent: string) =>
      api.send('PUT', `/api/assessment_line_items/${id}`, { title: 'Parte', parent_id: parent });
    // A chain of 22: the top moved under the bottom would close a cycle of 22, the walk's limit past.
    const chain = [await make('Parte 0')];
    for (let i = 1; i < 22; i++) chain.push(await make(`Parte ${i}`, chain.at(-1)));
    const before = await everyNative('assessment_line_items');
    for (const bottom of [chain[20], chain[21]] as string[]) {
      const problem = await json(await move(chain[0] as string, bottom), 400);
      expect(JSON.stringify(problem.errors)).toContain('parent_id');
    }
    // Nor under a part more than 20 levels down, though it would make no cycle.
    const apart = await make('Outra');
    await json(await move(apart, chain[21] as string), 400);
    await json(await move(apart, chain[19] as string), 200);
    expect(
      (await everyNative('assessment_line_items')).filter((i) => i.assessment_line_item_id !== apart),
    ).toEqual(before.filter((i) => i.assessment_line_item_id !== apart));
    // Three moves at once that would close a cycle of three: at most two of them are made.
    for (let round = 0; round < 8; round++) {
      const [x, y, z] = [await make('X'), await make('Y'), await make('Z')] as [string, string, string];
      const statuses = (await Promise.all([move(x, y), move(y, z), move(z, x)])).map((r) => r.status);
      expect(statuses.filter((s) => s === 400).length, statuses.join()).toBeGreaterThan(0);
      for (const status of statuses) expect([200, 400]).toContain(status);
      const parentOf = new Map(
        await Promise.all(
          [x, y, z].map(
            async (id) =>
              [id, (await json(await api.get(`/api/assessment_line_items/${id}`))).parent_id] as const,
          ),
        ),
      );
      let at: unknown = x;
      for (let step = 0; step < 3 && typeof at === 'string'; step++) at = parentOf.get(at);
      expect(at, 'a cycle of three').not.toBe(x);
    }
  });

  it('are neither read nor written by a client registered with schools', async () => {
    const { classId } = await sharedClass();
    const cls = await json(await api.get(`/api/classes/${classId}`));
    const { token } = await registeredClient(api, {
      name: 'One school assessments',
      scopes: ['assessment:read', 'assessment:write', oneRosterScopes.assessment],
      schools: [cls.school_id as string],
    });
    const page = await json(await api.get('/api/assessment_line_items', { token }));
    expect(page.assessment_line_items).toEqual([]);
    const made = await api.send(
      'POST',
      '/api/assessment_line_items',
      { title: 'Prova da escola', class_id: classId },
      { token },
    );
    expect(made.status).toBe(403);
    const objects = await validResponse(
      await api.get(`${BASE}/assessmentResults`, { token }),
      'AssessmentResultSetDType',
    );
    expect(objects.assessmentResults).toEqual([]);
  });
});

describe('the OneRoster 1.2 assessmentLineItems and assessmentResults', () => {
  it('answer the native records as the binding describes them, under assessment.readonly alone', async () => {
    const items = await everyNative('assessment_line_items');
    const response = await api.get(`${BASE}/assessmentLineItems?limit=100`);
    const objects = (await validResponse(response, 'AssessmentLineItemSetDType'))
      .assessmentLineItems as Obj[];
    expect(response.headers.get('x-total-count')).toBe(String(items.length));
    const whole = items.find((i) => i.title === DEMO_ASSESSMENT) as Row;
    const part = items.find((i) => i.parent_id === whole.assessment_line_item_id) as Row;
    expect(objects.find((o) => o.sourcedId === part.assessment_line_item_id)).toEqual({
      sourcedId: part.assessment_line_item_id,
      status: 'active',
      dateLastModified: part.updated_at,
      title: part.title,
      description: part.description,
      parentAssessmentLineItem: {
        href: expect.stringContaining(`${BASE}/assessmentLineItems/${whole.assessment_line_item_id}`),
        sourcedId: whole.assessment_line_item_id,
        type: 'assessmentLineItem',
      },
      resultValueMin: 0,
      resultValueMax: 100,
    });
    const single = await validResponse(
      await api.get(`${BASE}/assessmentLineItems/${part.assessment_line_item_id}`),
      'SingleAssessmentLineItemDType',
    );
    expect(single.assessmentLineItem).toEqual(
      objects.find((o) => o.sourcedId === part.assessment_line_item_id),
    );

    const [result] = await everyNative('assessment_results');
    const student = await json(await api.get(`/api/students/${result?.student_id}`));
    const read = await validResponse(
      await api.get(`${BASE}/assessmentResults/${result?.assessment_result_id}`),
      'SingleAssessmentResultDType',
    );
    expect(read.assessmentResult).toEqual({
      sourcedId: result?.assessment_result_id,
      status: 'active',
      dateLastModified: result?.updated_at,
      assessmentLineItem: expect.objectContaining({ sourcedId: result?.assessment_line_item_id }),
      student: {
        href: expect.stringContaining(`${USERS}/${student.entity_id}`),
        sourcedId: student.entity_id,
        type: 'user',
      },
      score: result?.score,
      scoreDate: result?.score_date,
      scorePercentile: result?.score_percentile,
      scoreStatus: 'fully graded',
    });

    const token = await api.token(oneRosterScopes.assessment);
    await validResponse(
      await api.get(`${BASE}/assessmentResults?limit=2`, { token }),
      'AssessmentResultSetDType',
    );
    for (const scope of [oneRosterScopes.gradebook, oneRosterScopes.gradebookCore, 'assessment:read']) {
      const other = await api.token(scope);
      await validResponse(
        await api.get(`${BASE}/assessmentResults`, { token: other }),
        'imsx_StatusInfoDType',
        403,
      );
    }
    await validResponse(
      await api.get(`${BASE}/assessmentLineItems/${randomUUID()}`),
      'imsx_StatusInfoDType',
      404,
    );
  });

  it('keep what a client writing back an assessment it read cannot see: a tenant’s scale, the fields its profile hides', async () => {
    const items = await everyNative('assessment_line_items');
    const whole = items.find((i) => i.title === DEMO_ASSESSMENT) as Row;
    const part = items.find((i) => i.parent_id === whole.assessment_line_item_id) as Row;
    const { token } = await registeredClient(api, {
      name: 'Assessments without their tree',
      scopes: [oneRosterScopes.assessment, oneRosterScopes.assessmentCreatePut],
      profile: {
        oneroster: { assessmentLineItems: { exclude: ['parentAssessmentLineItem', 'scoreScale'] } },
      },
    });
    for (const [item, as] of [
      [whole, undefined],
      [part, token],
    ] as const) {
      const path = `${BASE}/assessmentLineItems/${item.assessment_line_item_id}`;
      const read = (await validResponse(await api.get(path, { token: as }), 'SingleAssessmentLineItemDType'))
        .assessmentLineItem as Row;
      expect(read).not.toHaveProperty('scoreScale');
      const written = await api.send(
        'PUT',
        path,
        { assessmentLineItem: { ...read, title: `${item.title}` } },
        { token: as },
      );
      expect(written.status, await written.clone().text()).toBe(201);
      const after = await json(await api.get(`/api/assessment_line_items/${item.assessment_line_item_id}`));
      expect(after).toMatchObject({ parent_id: item.parent_id, score_scale_id: item.score_scale_id });
    }
    expect(whole.score_scale_id).not.toBeNull();
  });

  it('answer a path or method the binding does not serve with its imsx_StatusInfo, not problem JSON', async () => {
    const [item] = await everyNative('assessment_line_items');
    const path = `${BASE}/assessmentLineItems/${item?.assessment_line_item_id}`;
    const notServed = await validResponse(await api.get(`${path}/results`), 'imsx_StatusInfoDType', 404);
    expect(notServed.imsx_CodeMinor).toEqual({
      imsx_codeMinorField: [
        { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unknownobject' },
      ],
    });
    const patched = await api.send('PATCH', path, { assessmentLineItem: {} });
    expect(patched.headers.get('allow')).toContain('PUT');
    await validResponse(patched, 'imsx_StatusInfoDType', 405);
    // Outside the bindings, problem JSON as before.
    const native = await api.send('PATCH', `/api/assessment_line_items/${item?.assessment_line_item_id}`, {});
    expect(native.status).toBe(405);
    expect(native.headers.get('content-type')).toContain('application/problem+json');
  });

  it('page, filter, sort and select fields as the other collections do', async () => {
    const all = (
      await validResponse(await api.get(`${BASE}/assessmentResults?limit=1000`), 'AssessmentResultSetDType')
    ).assessmentResults as Obj[];
    const first = await api.get(`${BASE}/assessmentResults?limit=2`);
    expect(
      ((await validResponse(first, 'AssessmentResultSetDType')).assessmentResults as Obj[]).map(
        (o) => o.sourcedId,
      ),
    ).toEqual(all.slice(0, 2).map((o) => o.sourcedId));
    expect(first.headers.get('link')).toContain('rel="next"');
    const high = (
      await validResponse(
        await api.get(
          `${BASE}/assessmentResults?limit=1000&filter=${encodeURIComponent("scorePercentile>='90'")}`,
        ),
        'AssessmentResultSetDType',
      )
    ).assessmentResults as Obj[];
    expect(high.map((o) => o.sourcedId)).toEqual(
      all.filter((o) => (o.scorePercentile as number) >= 90).map((o) => o.sourcedId),
    );
    const sorted = (
      await validResponse(
        await api.get(`${BASE}/assessmentResults?limit=5&sort=score&orderBy=desc`),
        'AssessmentResultSetDType',
      )
    ).assessmentResults as Obj[];
    expect(sorted.map((o) => o.score)).toEqual(
      all
        .map((o) => o.score as number)
        .sort((a, b) => b - a)
        .slice(0, 5),
    );
    const selected = await json<{ assessmentResults: Row[] }>(
      await api.get(`${BASE}/assessmentResults?limit=2&fields=sourcedId,scorePercentile`),
    );
    expect(selected.assessmentResults).toEqual(
      all.slice(0, 2).map(({ sourcedId, scorePercentile }) => ({ sourcedId, scorePercentile })),
    );
  });

  it('make, replace and delete an assessment and a result under the client’s sourcedIds, and tell a delta of them', async () => {
    const since = new Date().toISOString();
    const { classId, studentId } = await sharedClass();
    const student = await json(await api.get(`/api/students/${studentId}`));
    const { token } = await registeredClient(api, {
      name: 'Assessment platform',
      scopes: [
        oneRosterScopes.assessment,
        oneRosterScopes.assessmentCreatePut,
        oneRosterScopes.assessmentDelete,
      ],
    });
    const put = (path: string, body: unknown, as = token) =>
      api.send('PUT', `${BASE}${path}`, body, { token: as });
    const itemId = randomUUID();
    const item = (fields: Row = {}) =>
      bindingBody('SingleAssessmentLineItemDType', {
        assessmentLineItem: {
          sourcedId: itemId,
          status: 'active',
          dateLastModified: new Date().toISOString(),
          title: 'Teste diagnóstico de Matemática',
          class: ref('class', classId, '/ims/oneroster/rostering/v1p2/classes'),
          resultValueMin: 0,
          resultValueMax: 100,
          ...fields,
        },
      });
    const made = await put(`/assessmentLineItems/${itemId}`, item());
    expect(made.status, await made.clone().text()).toBe(201);
    expect(made.headers.get('location')).toBe(`${api.url}${BASE}/assessmentLineItems/${itemId}`);
    expect(await json(await api.get(`/api/assessment_line_items/${itemId}`))).toMatchObject({
      class_id: classId,
      parent_id: null,
      title: 'Teste diagnóstico de Matemática',
      result_value_max: 100,
    });
    // gradebook.createput writes no assessment.
    const gradebookToken = await api.token(oneRosterScopes.gradebookCreatePut);
    await validResponse(
      await put(`/assessmentLineItems/${itemId}`, item(), gradebookToken),
      'imsx_StatusInfoDType',
      403,
    );
    // Its class stays its class.
    await validResponse(
      await put(`/assessmentLineItems/${itemId}`, item({ class: undefined })),
      'imsx_StatusInfoDType',
      409,
    );
    expect((await put(`/assessmentLineItems/${itemId}`, item({ title: 'Teste diagnóstico' }))).status).toBe(
      201,
    );

    const resultId = randomUUID();
    /** A result as sent, valid by the binding's schema or not. */
    const sent = (fields: Row = {}) => ({
      assessmentResult: {
        sourcedId: resultId,
        status: 'active',
        dateLastModified: new Date().toISOString(),
        assessmentLineItem: ref('assessmentLineItem', itemId, `${BASE}/assessmentLineItems`),
        student: ref('user', student?.entity_id, USERS),
        score: 71,
        scoreDate: '2027-01-20',
        scorePercentile: 64,
        scoreStatus: 'fully graded',
        ...fields,
      },
    });
    const result = (fields: Row = {}) => bindingBody('SingleAssessmentResultDType', sent(fields));
    expect((await put(`/assessmentResults/${resultId}`, result())).status).toBe(201);
    expect(await json(await api.get(`/api/assessment_results/${resultId}`))).toMatchObject({
      class_id: classId,
      assessment_line_item_id: itemId,
      student_id: student?.student_id,
      score: 71,
      score_percentile: 64,
    });
    // Bad input is refused and changes nothing.
    for (const [bad, status] of [
      [
        result({
          assessmentLineItem: ref('assessmentLineItem', randomUUID(), `${BASE}/assessmentLineItems`),
        }),
        400,
      ],
      [result({ student: ref('user', classId, USERS) }), 400],
      [result({ scorePercentile: 140 }), 400],
      [sent({ scoreStatus: 'graded' }), 400],
      [{ assessmentResult: { sourcedId: resultId } }, 400],
    ] as const) {
      await validResponse(await put(`/assessmentResults/${resultId}`, bad), 'imsx_StatusInfoDType', status);
    }
    expect(await json(await api.get(`/api/assessment_results/${resultId}`))).toMatchObject({ score: 71 });
    await validResponse(await put(`/assessmentResults/not-a-uuid`, result()), 'imsx_StatusInfoDType', 400);
    // What the service does not keep is not refused, and not stored.
    expect((await put(`/assessmentResults/${resultId}`, result({ score: 75, late: 'true' }))).status).toBe(
      201,
    );
    expect(await json(await api.get(`/api/assessment_results/${resultId}`))).not.toHaveProperty('late');
    // A student has one result an assessment.
    const twin = randomUUID();
    await validResponse(
      await put(`/assessmentResults/${twin}`, {
        assessmentResult: { ...sent().assessmentResult, sourcedId: twin },
      }),
      'imsx_StatusInfoDType',
      409,
    );

    // An assessment a result names is not deleted.
    await validResponse(
      await api.send('DELETE', `${BASE}/assessmentLineItems/${itemId}`, undefined, { token }),
      'imsx_StatusInfoDType',
      409,
    );
    expect(
      (await api.send('DELETE', `${BASE}/assessmentResults/${resultId}`, undefined, { token })).status,
    ).toBe(204);
    expect(
      (await api.send('DELETE', `${BASE}/assessmentLineItems/${itemId}`, undefined, { token })).status,
    ).toBe(204);
    await validResponse(await api.get(`${BASE}/assessmentResults/${resultId}`), 'imsx_StatusInfoDType', 404);

    await waitForSyncLag();
    const delta = (query: string, schema: string, key: string) =>
      api
        .get(`${BASE}/${query}?limit=100&filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`)
        .then(async (r) => (await validResponse(r, schema))[key] as Obj[]);
    expect(await delta('assessmentResults', 'AssessmentResultSetDType', 'assessmentResults')).toContainEqual(
      expect.objectContaining({
        sourcedId: resultId,
        status: 'tobedeleted',
        assessmentLineItem: expect.objectContaining({ sourcedId: itemId }),
        student: expect.objectContaining({ sourcedId: student?.entity_id }),
      }),
    );
    expect(
      await delta('assessmentLineItems', 'AssessmentLineItemSetDType', 'assessmentLineItems'),
    ).toContainEqual(
      expect.objectContaining({
        sourcedId: itemId,
        status: 'tobedeleted',
        class: expect.objectContaining({ sourcedId: classId }),
      }),
    );
  });
});
