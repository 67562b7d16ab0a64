// The "limit" comparison server: Fastify doing only what `GET /api/auth/me` must do and nothing else,
// started with Node's defaults and no logger (the comparison for serve at LOG_LEVEL=warn): the same
// security headers (the same hook as serve), `Cache-Control: no-store`, one read of the session and
// its user with the user's role by the token's SHA-256, then one of the user's teams (prepared
// better-sqlite3 statements on SQLite, named statements on PostgreSQL) with the expiry checked, the
// answer ({ user, role, teams }, as serve's) through a response schema, and serve's 404 for any other
// path. No signature check, no rate limits, no request log: what timetrack does beyond this is the
// gap the bench measures (docs/performance.md).
//
// node limit-server.js <port> sqlite <file> | node limit-server.js <port> postgres <url>
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { registerRequestStart } from '../../src/http/security-headers.js';
import { sendNotFound } from '../../src/http/error-handler.js';

const require = createRequire(import.meta.url);
const [, , port, engine, location] = process.argv;

const SQL = `select auth_tokens.expires_at, users.id, users.email, users.full_name, users.username, users.created_at, users.role
  from auth_tokens join users on users.id = auth_tokens.user_id join auth_info on auth_info.user_id = auth_tokens.user_id
  where auth_tokens.token_hash = ? and auth_info.status = 'active'`;
const TEAMS_SQL = `select teams.id, teams.name, team_members.role from team_members join teams on teams.id = team_members.team_id
  where team_members.user_id = ? order by teams.name`;

interface Row {
  expires_at: string;
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
  role: string;
}

interface Team {
  id: number;
  name: string;
  role: string;
}

type Read = (tokenHash: string, answer: (row: Row | undefined, teams: Team[]) => void) => void;

function sqliteRead(file: string): Read {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(file, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  const statement = db.prepare<[string], Row>(SQL);
  const teams = db.prepare<[number], Team>(TEAMS_SQL);
  return (tokenHash, answer) => {
    const row = statement.get(tokenHash);
    answer(row, row ? teams.all(row.id) : []);
  };
}

function postgresRead(url: string): Read {
  const pg = require('pg') as typeof import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c TimeZone=UTC' });
  pg.types.setTypeParser(1184, (text: string) => new Date(text.replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString());
  const text = SQL.replace('?', '$1');
  const teamsText = TEAMS_SQL.replace('?', '$1');
  const both = async (tokenHash: string): Promise<[Row | undefined, Team[]]> => {
    const row = (await pool.query<Row>({ name: 'limit_me', text, values: [tokenHash] })).rows[0];
    return [row, row ? (await pool.query<Team>({ name: 'limit_teams', text: teamsText, values: [row.id] })).rows : []];
  };
  return (tokenHash, answer) => {
    both(tokenHash).then(
      ([row, teams]) => answer(row, teams),
      () => answer(undefined, []),
    );
  };
}

const read = engine === 'postgres' ? postgresRead(location!) : sqliteRead(location!);
const app = Fastify({ logger: false });
registerRequestStart(app);
app.setNotFoundHandler(sendNotFound);
const User = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    full_name: { type: 'string' },
    username: { type: ['string', 'null'] },
    created_at: { type: 'string' },
  },
};
app.get(
  '/api/auth/me',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            user: User,
            role: { type: 'string' },
            teams: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, role: { type: 'string' } } } },
          },
        },
        401: { type: 'object', additionalProperties: true },
      },
    },
  },
  (request, reply) => {
    reply.header('cache-control', 'no-store');
    const header = request.headers.authorization;
    const unauthorized = () => reply.code(401).send({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'Authentication required' });
    if (!header?.startsWith('Bearer ')) return unauthorized();
    read(hash('sha256', header.slice(7), 'hex'), (row, teams) => {
      if (!row || Date.parse(row.expires_at) <= Date.now()) return unauthorized();
      const { expires_at: _expires, role, ...user } = row;
      reply.send({ user, role, teams });
    });
  },
);
app.get('/', (_request, reply) => reply.send({ status: 'ok' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(port ?? 0) });
process.stderr.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
