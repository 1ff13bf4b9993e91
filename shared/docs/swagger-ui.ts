// The docs page: Swagger UI (swagger-ui-dist from npm) reading /api/openapi.json. Its script and style
// sheet are bundled into the handler as text and served beside the page under content-hashed names, so
// the page works offline, loads nothing from elsewhere, and browsers cache the assets for good.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import swaggerUiStyles from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' };
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' };
import swaggerUiLicenses from 'swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt' with { type: 'text' };
import type { ApiResponse } from '../http/exchange';

/** Scripts and styles of this origin only; Swagger UI styles some elements inline. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const startScript = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'none',
  displayOperationId: true,
  validatorUrl: null,
});
`;

/** The source maps the files point to are not served. */
const withoutSourceMap = (text: string) => text.replace(/\n\/[/*]# sourceMappingURL=\S+\s*$/, '\n');

interface Asset {
  name: string;
  contentType: string;
  text: string;
  cacheControl: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function hashed(base: string, extension: string, contentType: string, text: string): Asset {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return { name: `${base}.${hash}.${extension}`, contentType, text, cacheControl: IMMUTABLE };
}

let assets: { script: Asset; styles: Asset; start: Asset; byName: Map<string, Asset> } | undefined;

function docsAssets() {
  if (!assets) {
    const script = hashed(
      'swagger-ui-bundle',
      'js',
      'text/javascript; charset=utf-8',
      withoutSourceMap(swaggerUiBundle),
    );
    const styles = hashed('swagger-ui', 'css', 'text/css; charset=utf-8', withoutSourceMap(swaggerUiStyles));
    const start = hashed('start', 'js', 'text/javascript; charset=utf-8', startScript);
    // The bundle's header comment names this file, so it keeps its name.
    const licenses: Asset = {
      name: 'swagger-ui-bundle.js.LICENSE.txt',
      contentType: 'text/plain; charset=utf-8',
      text: swaggerUiLicenses,
      cacheControl: 'public, max-age=86400',
    };
    assets = {
      script,
      styles,
      start,
      byName: new Map([script, styles, start, licenses].map((asset) => [asset.name, asset])),
    };
  }
  return assets;
}

/** The page; asset paths are relative to /api/docs, so it works under any base path. */
export function docsPage(): ApiResponse {
  const { script, styles, start } = docsAssets();
  return {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
      'referrer-policy': 'no-referrer',
    },
    rawBody: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>School API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/${styles.name}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/${script.name}"></script>
<script src="docs/${start.name}"></script>
</body>
</html>
`,
  };
}

const gzipped = new Map<string, string>();

/** One asset, gzipped when the client takes gzip; undefined when there is no such asset. */
export function docsAsset(name: string, acceptEncoding: string | undefined): ApiResponse | undefined {
  const asset = docsAssets().byName.get(name);
  if (!asset) return undefined;
  const headers = {
    'content-type': asset.contentType,
    'cache-control': asset.cacheControl,
    vary: 'accept-encoding',
  };
  if (!/\bgzip\b/i.test(acceptEncoding ?? '')) return { headers, rawBody: asset.text };
  let body = gzipped.get(name);
  if (body === undefined) {
    body = gzipSync(asset.text).toString('base64');
    gzipped.set(name, body);
  }
  return { headers: { ...headers, 'content-encoding': 'gzip' }, rawBody: body, isBase64Encoded: true };
}
