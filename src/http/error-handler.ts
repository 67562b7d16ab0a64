// Every failure answers the one error shape (docs/api.md, "Errors"). A 500 says nothing but
// "internal error": Fastify's default would echo error.message, which can carry SQL or a constraint
// name. The detail goes to the log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../common/errors.js';
import { isDatabaseUnavailable, isUnstorableText } from '../db/database.js';
import type { HealthService } from '../common/health.js';
import type { OutageLog } from './outage-log.js';
import { EntryChangedError, EntryConflictError } from '../time/entries/rules.js';
import { errorBody, STATUS_OF_CODE, type FieldProblem } from './errors.js';
import { MonthLockedError } from '../time/month-lock.js';

// Fastify's own errors that are the client's fault, with the contract's code for each.
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

/** A schema failure as the field it names: "/weekly_target_minutes/mon" → "weekly_target_minutes.mon"; a missing or unknown property by its own name. */
function fieldProblems(validation: NonNullable<FastifyError['validation']>, context: string | undefined): FieldProblem[] {
  return validation.map((failure) => {
    const params = failure.params as { missingProperty?: string; additionalProperty?: string };
    const path = failure.instancePath.split('/').filter(Boolean);
    const named = params.missingProperty ?? params.additionalProperty;
    if (named !== undefined) path.push(named);
    const field = path.join('.') || (context ?? 'body');
    const message = params.additionalProperty !== undefined ? `${field} is not a known field` : `${field} ${failure.message ?? 'is not valid'}`;
    return { field, message };
  });
}

/** The 404 of an unknown route: the root's not-found handler (src/http/web) answers it outside the client's paths; route groups whose hooks must apply to it set it too. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply): void {
  // errorBody's shape, written as text: scanners and monitors ask for unknown paths all day.
  const query = request.url.indexOf('?');
  const message = JSON.stringify(`Route ${request.method} ${query === -1 ? request.url : request.url.slice(0, query)} not found`);
  reply.code(404).type('application/json; charset=utf-8').send(`{"statusCode":404,"error":"Not Found","code":"NOT_FOUND","message":${message}}`);
}

export function registerErrorHandling(app: FastifyInstance, health: HealthService, outages: OutageLog, onDatabaseError: () => void = () => {}): void {
  app.setErrorHandler((error: FastifyError & { retryAfterSeconds?: number }, request, reply) => {
    if (error instanceof ServiceError) {
      const status = STATUS_OF_CODE[error.code];
      if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      if (error.code === 'UNAUTHORIZED') reply.header('WWW-Authenticate', 'Bearer');
      const details = error.field !== undefined ? [{ field: error.field, message: error.message }] : undefined;
      const entry = error instanceof EntryConflictError || error instanceof EntryChangedError ? error.entry : undefined;
      const month = error instanceof MonthLockedError ? { month: error.month } : {};
      return reply.code(status).send(errorBody(status, error.code, error.message, { ...(details && { details }), ...(entry && { entry }), ...month }));
    }
    if (error.validation) {
      return reply.code(400).send(errorBody(400, 'VALIDATION_ERROR', error.message, { details: fieldProblems(error.validation, error.validationContext) }));
    }
    if (error.statusCode === 429) {
      return reply.code(429).send(errorBody(429, 'RATE_LIMITED', error.message));
    }
    const clientCode = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (clientCode && error.statusCode) {
      return reply.code(error.statusCode).send(errorBody(error.statusCode, clientCode, error.message));
    }
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return reply.code(400).send(errorBody(400, 'INVALID_JSON', 'The request body is not valid JSON'));
    }
    if (isUnstorableText(error)) {
      return reply.code(400).send(errorBody(400, 'VALIDATION_ERROR', 'Text must not contain NUL characters'));
    }
    if (isDatabaseUnavailable(error)) {
      // A busy, full, read-only or failing database is an outage, not a bug: 503, and health reports it.
      health.recordUnavailable(error);
      onDatabaseError();
      outages.failed(error);
      reply.header('Retry-After', '5');
      return reply.code(503).send(errorBody(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'));
  });
}
