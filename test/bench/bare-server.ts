// The bare reference for the throughput and overhead benchmarks: plain node:http making the same
// DynamoDB call the API makes (one page Query, or one GetItem) and writing the items as JSON, with
// no routing, events, middleware, tokens or logging. Prints its address when ready.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '../../shared/data/document-client';
import { PAGE_ITEMS, pageQuery, studentGet } from './bare-calls';

const endpoint = process.env.DYNAMODB_ENDPOINT;
const tableName = process.env.TABLE_NAME;
if (!endpoint || !tableName) throw new Error('bare-server needs DYNAMODB_ENDPOINT and TABLE_NAME');
const db = createDocumentClient({ region: 'eu-west-1', endpoint });

const server = createServer(async (req, res) => {
  try {
    const id = /^\/students\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1];
    let body: unknown;
    if (id) {
      body = (await db.send(studentGet(tableName, id))).Item;
    } else {
      const { Items = [] } = await db.send(pageQuery(tableName));
      body = { students: Items.slice(0, PAGE_ITEMS) };
    }
    const json = JSON.stringify(body ?? null);
    res.writeHead(body === undefined ? 404 : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(json),
    });
    res.end(json);
  } catch {
    res.writeHead(500).end();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`bare server ready at http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  db.destroy();
});
