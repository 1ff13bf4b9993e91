// The sign-in pages' errors (the routes whose dialect is `page`): every refusal and failure is a page in
// the person's language naming the school, with the pages' security headers, never a JSON body.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../config';
import { render } from '../http/api';
import type { ErrorDialect } from '../http/dialect';
import { HttpError } from '../http/errors';
import type { ApiResponse } from '../http/exchange';
import { type ErrorContext, isExposedHttpError, logFailure } from '../http/problem';
import { header } from '../http/request';
import { errorPage, PageError, type PageView } from './html-page';
import { chooseLocale, pageText } from './page-text';

/**
 * The language and school of a page route's error page: ui_locales from the query or form, else the
 * browser's Accept-Language, as the sign-in page chooses.
 */
function pageViewOf(event: APIGatewayProxyEventV2, config: Config): PageView {
  const form =
    event.requestContext?.http?.method === 'POST' && !event.isBase64Encoded ? (event.body ?? '') : '';
  const uiLocales = [event.rawQueryString ?? '', form]
    .map((params) => new URLSearchParams(params).get('ui_locales') ?? undefined)
    .find((value) => value !== undefined);
  return {
    tenantName: config.tenantName,
    locale: chooseLocale(uiLocales, header(event, 'accept-language'), config.defaultLocale),
  };
}

/**
 * The same outcomes as pages, for the operations people open in a browser (the sign-in page), in the
 * page's language and naming the school. A refusal the page did not word itself (a body too large, not
 * a form) gets one general wording, since its detail is written for developers.
 */
function errorPageResponse(error: unknown, context: ErrorContext, view: PageView): ApiResponse {
  const text = pageText[view.locale].errors;
  if (error instanceof PageError) {
    return errorPage(view, { status: error.status, ...error.wording(text), headers: error.headers });
  }
  const refused =
    error instanceof HttpError ? error.status : isExposedHttpError(error) ? error.statusCode : 0;
  if (refused >= 400 && refused < 500) {
    const headers = error instanceof HttpError ? error.headers : {};
    return errorPage(view, { status: refused, title: text.badRequest, message: text.badRequestWhy, headers });
  }
  logFailure(error, context);
  return errorPage(view, {
    status: 500,
    title: text.failed,
    message: text.failedWhy(context.requestId),
    headers: {},
  });
}

/** The pages' dialect, with the process's configuration for the school's name and default language. */
export const pageDialect = (config: () => Config): ErrorDialect => ({
  render: (error, context, event) => render(errorPageResponse(error, context, pageViewOf(event, config()))),
});
