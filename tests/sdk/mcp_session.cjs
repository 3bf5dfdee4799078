'use strict';
// `git vault mcp` driven by the official MCP TypeScript SDK client, as an agent's host drives it:
// connect (protocol 2025-11-25), list the tools, call each one, then send the malformed inputs
// the server must answer without dying or flooding the client (doc/agent.md, "git vault mcp"),
// and check after each that the server still answers.
//   node mcp_session.cjs <git-vault binary> <folder whose node_modules holds the SDK>
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const { createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');

const [binary, sdkFolder] = process.argv.slice(2);
const sdk = createRequire(path.join(path.resolve(sdkFolder), 'package.json'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');
const { LATEST_PROTOCOL_VERSION, McpError } = sdk('@modelcontextprotocol/sdk/types.js');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-vault-sdk-'));
const env = {
  PATH: `${path.dirname(path.resolve(binary))}:${process.env.PATH}`,
  HOME: root,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: '2026-11-30T12:00:00Z',
  GIT_COMMITTER_DATE: '2026-11-30T12:00:00Z',
  GIT_VAULT_TODAY: '2026-11-30',
};
const repo = path.join(root, 'repo');

function git(...args) {
  execFileSync('git', args, { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

function memory(id, title, body, keywords = 'sdk') {
  fs.writeFileSync(
    path.join(repo, '.memory/10-Memories', `${id}.md`),
    `---\ntitle: "${title}"\ncreated: 2026-11-01\ntags: [PATTERN]\ntopic: "sdk"\n` +
      `modified: 2026-11-01\nkeywords: [${keywords}]\nsummary: "${'s'.repeat(2000)}"\n` +
      `retrieval_count: 0\nlast_retrieved: null\n---\n\n# ${title}\n\n${body}\n`,
  );
}

// A vault large enough that an unbounded answer would be megabytes.
function makeRepository() {
  fs.mkdirSync(path.join(repo, '.memory/10-Memories'), { recursive: true });
  git('init', '-q', '-b', 'main');
  memory(
    'MEM-retry',
    'Retry with backoff',
    'Retry idempotent requests with exponential backoff.',
    'retry, backoff, requests',
  );
  for (let i = 1; i <= 300; ++i) {
    memory(`MEM-bulk-${String(i).padStart(3, '0')}`, `Bulk ${i}`, 'bulkword '.repeat(1500));
  }
  memory('MEM-huge', 'Huge', 'hugeword '.repeat(300000));
  git('add', '-A');
  git('commit', '-q', '-m', 'vault');
}

function journalLines() {
  const file = path.join(repo, '.git/git-vault/retrievals.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

const text = (result) => result.content[0].text;
const failures = [];
let passed = 0;

async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (error) {
    failures.push(name);
    console.log(`not ok - ${name}\n  ${String(error.stack || error).replace(/\n/g, '\n  ')}`);
  }
}

async function rejectsWith(promise, code, fragment) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof McpError, `not an McpError: ${error}`);
    assert.equal(error.code, code);
    assert.match(error.message, fragment);
    return true;
  });
}

async function main() {
  makeRepository();
  const transport = new StdioClientTransport({
    command: binary,
    args: ['mcp', '--allow-write'],
    cwd: repo,
    env,
    stderr: 'pipe',
  });
  let serverErr = '';
  transport.stderr.on('data', (chunk) => {
    serverErr += chunk;
  });
  let negotiated = null;
  transport.setProtocolVersion = (version) => {
    negotiated = version;
  };
  const client = new Client({ name: 'git-vault-sdk-test', version: '1' });
  const clientErrors = [];
  client.onerror = (error) => clientErrors.push(error);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  // Every message the server sends, also those the client cannot match to a request.
  const seen = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(message);
    deliver(message, extra);
  };
  const alive = async () => assert.deepEqual(await client.ping(), {});

  await check('initialize agrees on the newest protocol, 2025-11-25', async () => {
    assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
    assert.equal(negotiated, '2025-11-25');
    assert.equal(client.getServerVersion().name, 'git-vault');
    assert.match(client.getInstructions(), /never call record_retrieval for those/);
  });

  await check('tools/list: six tools, each schema with `required` and bounds', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'build_context', 'get_memory', 'list_memories', 'record_retrieval', 'search_memories',
      'write_memory',
    ]);
    for (const tool of tools) {
      assert.ok(Array.isArray(tool.inputSchema.required), tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      for (const [name, property] of Object.entries(tool.inputSchema.properties)) {
        if (property.type === 'string' && !property.enum) assert.ok(property.maxLength, name);
        if (property.type === 'integer') assert.ok(property.maximum !== undefined, name);
        if (property.type === 'array') assert.ok(property.maxItems, name);
      }
    }
  });

  await check('search_memories finds a memory', async () => {
    const result = await client.callTool({ name: 'search_memories', arguments: { query: 'retry backoff' } });
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.results[0].id, 'MEM-retry');
  });

  await check('get_memory reads one, counting one retrieval for ids given twice', async () => {
    const before = journalLines().length;
    const result = await client.callTool({ name: 'get_memory', arguments: { ids: ['MEM-retry', 'MEM-retry'] } });
    assert.equal(result.structuredContent.memories.length, 1);
    assert.equal(journalLines().length, before + 1);
  });

  await check("build_context's structuredContent carries the block", async () => {
    const result = await client.callTool({ name: 'build_context', arguments: { task: 'retry requests with backoff' } });
    assert.equal(result.isError, false);
    assert.match(text(result), /^<memory-context>/);
    assert.equal(result.structuredContent.context, text(result));
  });

  await check('list_memories pages within the answer limit', async () => {
    const result = await client.callTool({ name: 'list_memories', arguments: { limit: 200 } });
    assert.equal(result.structuredContent.total, 302);
    assert.ok(text(result).length < 82000, `${text(result).length} bytes`);
    assert.equal(result.structuredContent.next_offset, result.structuredContent.memories.length);
    assert.match(result.structuredContent.note, /call again with `offset`/);
  });

  await check('record_retrieval counts a memory read some other way', async () => {
    const result = await client.callTool({ name: 'record_retrieval', arguments: { id: 'MEM-bulk-001' } });
    assert.equal(result.structuredContent.recorded, 1);
  });

  await check('write_memory (dry run) decides without writing', async () => {
    const result = await client.callTool({
      name: 'write_memory',
      arguments: { title: 'Kiwi facts', content: 'Kiwis are flightless birds.', dry_run: true },
    });
    assert.equal(result.isError, false, text(result));
    assert.equal(result.structuredContent.operation, 'CREATE');
    assert.equal(result.structuredContent.commit, null);
  });

  await check('write_memory refuses a secret', async () => {
    const result = await client.callTool({
      name: 'write_memory',
      // A real-shaped token: one repeated letter reads as a placeholder, which the detector lets be.
      arguments: { title: 'Leak', content: 'token ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4' },
    });
    assert.equal(result.isError, true);
    assert.match(text(result), /GitHub token/);
  });

  await check('a value nested 1,000 deep is refused by name, matched to its request', async () => {
    let deep = [];
    for (let i = 0; i < 1000; ++i) deep = [deep];
    await rejectsWith(
      client.callTool({ name: 'get_memory', arguments: { ids: deep } }),
      -32600,
      /deeper than this server reads \(64 levels\)/,
    );
    await alive();
  });

  await check('a value nested 140,000 deep (written raw) is answered and the server serves on', async () => {
    const depth = 140000;
    transport._process.stdin.write(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_memory","arguments":{"ids":` +
        `${'['.repeat(depth)}${']'.repeat(depth)}}},"id":"raw-deep"}\n`,
    );
    await alive();
    const answer = seen.find((message) => message.id === 'raw-deep');
    assert.ok(answer, 'no answer to the raw request');
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /nest 140003 deep/);
  });

  await check('a 64 MiB line is refused by name, matched to its request, and the server serves on', async () => {
    await rejectsWith(
      client.callTool({ name: 'search_memories', arguments: { query: 'x'.repeat(64 << 20) } }),
      -32600,
      /longer than this server reads \(1048576 bytes\)/,
    );
    await alive();
  });

  await check('a 5 MiB query is refused; a 9 KB query is echoed in part', async () => {
    await rejectsWith(
      client.callTool({ name: 'search_memories', arguments: { query: 'q'.repeat(5 << 20) } }),
      -32600,
      /longer than this server reads/,
    );
    const result = await client.callTool({
      name: 'search_memories',
      arguments: { query: `retry ${'q'.repeat(9000)}` },
    });
    assert.ok(result.structuredContent.query.length <= 200);
    assert.match(result.structuredContent.note, /echoed in part/);
  });

  await check('get_memory with 5,000 ids is refused, recording nothing', async () => {
    const before = journalLines().length;
    const ids = Array.from({ length: 5000 }, (_, i) => (i % 2 ? 'MEM-bulk-001' : 'MEM-bulk-002'));
    const result = await client.callTool({ name: 'get_memory', arguments: { ids } });
    assert.equal(result.isError, true);
    assert.equal(text(result), 'argument `ids` holds 5000 items; it takes at most 20');
    assert.equal(journalLines().length, before);
  });

  await check('get_memory of 20 large memories stops under the limit and names the rest', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `MEM-bulk-${String(i + 1).padStart(3, '0')}`);
    const result = await client.callTool({ name: 'get_memory', arguments: { ids } });
    assert.equal(result.isError, false);
    assert.ok(text(result).length < 82000, `${text(result).length} bytes`);
    assert.ok(result.structuredContent.omitted.length > 0);
    const huge = await client.callTool({ name: 'get_memory', arguments: { id: 'MEM-huge' } });
    assert.equal(huge.structuredContent.memories[0].body_cut, true);
    assert.ok(text(huge).length < 82000);
  });

  await check('errors name the alias the caller used', async () => {
    const q = await client.callTool({ name: 'search_memories', arguments: { q: 5 } });
    assert.equal(text(q), 'argument `q` must be a string');
    const query = await client.callTool({ name: 'search_memories', arguments: { query: 5 } });
    assert.equal(text(query), 'argument `query` must be a string');
  });

  await check('a 200 KB id is refused at once; the closest ids come back for a near miss', async () => {
    const started = Date.now();
    const result = await client.callTool({ name: 'get_memory', arguments: { id: 'M'.repeat(200000) } });
    assert.equal(result.isError, true);
    assert.match(text(result), /an item takes at most 255/);
    await alive();
    const near = await client.callTool({ name: 'get_memory', arguments: { id: 'MEM-retyr' } });
    assert.match(text(near), /did you mean MEM-retry/);
    console.log(`# 200 KB id and a ping answered in ${Date.now() - started} ms`);
  });

  await check('the connection is still open and no message was unreadable', async () => {
    await alive();
    assert.equal(closed, false);
    const unreadable = clientErrors.filter((error) => !/unknown message ID/.test(String(error)));
    assert.deepEqual(unreadable.map(String), []);
  });

  await client.close();
  fs.rmSync(root, { recursive: true, force: true });
  console.log(`${passed} passed, ${failures.length} failed`);
  if (failures.length > 0) {
    console.log(`server stderr:\n${serverErr}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
