// What the factory (api.ts) reads of a route: the service's route rows carry this and more.

/** The body a route takes; larger ones get 413. */
export interface RouteBody {
  /** JSON only, a form or JSON (the token endpoint), or a form only (the sign-in form). */
  type: 'json' | 'form-or-json' | 'form';
  maxBytes: number;
}

export interface HttpRoute<DialectKind extends string = string> {
  /** The route's name in its log lines. */
  id: string;
  /** Query parameters the operation takes; any other is refused with 400 ('any': not checked). */
  query: readonly string[] | 'any';
  /** Other query parameters are ignored instead of refused (the authorization endpoint, RFC 6749 section 3.1). */
  ignoreUnknownQuery?: true;
  body?: RouteBody;
  /** How its errors are written: the factory is given a dialect of each kind its routes name. */
  dialect: { kind: DialectKind };
}
