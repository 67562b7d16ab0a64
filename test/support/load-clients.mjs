// Clients that load a server, in a process of their own (so that reading their answers does not slow
// the test process, which measures a bystander): exporters loop exports (CSV and account document in
// turn), askers loop statistics, until the deadline; then the counts go to stdout as one JSON line.
// Settings: LOAD_BASE_URL, LOAD_DEADLINE (ms since the epoch), LOAD_EXPORTERS and LOAD_ASKERS (tokens,
// comma-separated).
const base = process.env.LOAD_BASE_URL;
const deadline = Number(process.env.LOAD_DEADLINE);
const tokens = (name) => (process.env[name] ?? '').split(',').filter(Boolean);
const counts = { exports: 0, exportBytes: 0, exportSizes: [], stats: 0, failures: [] };

async function get(path, token) {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  for await (const piece of response.body) bytes += piece.byteLength;
  if (response.status !== 200) counts.failures.push(`${path} ${response.status}`);
  return bytes;
}

async function exporter(token) {
  for (let i = 0; Date.now() < deadline; i += 1) {
    const bytes = await get(i % 2 === 0 ? '/api/time-entries/export' : '/api/settings/export', token);
    counts.exportBytes += bytes;
    counts.exportSizes.push(bytes);
    counts.exports += 1;
  }
}

async function asker(token) {
  const paths = ['/api/stats/overtime', '/api/stats/today', '/api/stats/week'];
  for (let i = 0; Date.now() < deadline; i += 1) {
    await get(paths[i % paths.length], token);
    counts.stats += 1;
  }
}

await Promise.all([...tokens('LOAD_EXPORTERS').map(exporter), ...tokens('LOAD_ASKERS').map(asker)]);
process.stdout.write(`${JSON.stringify(counts)}\n`);
