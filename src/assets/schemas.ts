/** Asset files, derived images and asset upload (docs/api.md "GET /assets/…", "POST …/assets"), for the OpenAPI document. */
import { object, Q, S } from '../lib/api-schema.js';
import { OUTPUT_FORMATS } from './image-params.js';

/** The derived-image parameters: every one optional; anything else, repeated or bad is 400 naming it. */
export const IMAGE_QUERY = {
  w: Q.int(
    1,
    3840,
    'Width, 1 to 3840, rounded up to 160, 320, 480, 640, 768, 1024, 1280, 1600, 1920, 2560, 3840; never above the source.',
  ),
  h: Q.int(1, 3840, 'Height, 1 to 3840; alone it becomes a width, with `w` it sets the aspect.'),
  ar: Q.pattern(
    '^[1-9]\\d{0,2}:[1-9]\\d{0,2}$',
    'Aspect ratio `W:H` (1 to 999 each), e.g. `16:9`; not with `h`.',
  ),
  preset: Q.pattern(
    '^[a-z0-9][a-z0-9_-]{0,39}$',
    "`thumb`, `card`, `hero`, `og`, or a key of the space's `imagePresets`; not with `h` or `ar`.",
  ),
  q: Q.int(
    1,
    100,
    'Quality 1 to 100, snapped to the nearest of 25, 50, 60, 75, 80, 90, 100 (defaults AVIF 50, WebP 75, JPEG 80).',
  ),
  fm: Q.oneOf(OUTPUT_FORMATS, '`avif`, `webp`, `jpeg` or `png` instead of negotiating by `Accept`.'),
  crop: 'A crop saved in content (from a delivered `url`), with `sig`.',
  sig: Q.pattern(
    '^[A-Za-z0-9_-]{22}$',
    "The crop's signature (from a delivered `url`): a forged or missing one is 403 `forbidden`.",
  ),
} as const;

/** An asset as the management API answers it. */
export const managedAsset = object(
  {
    id: S.string,
    url: S.describe(S.string, 'The delivery URL of the original; derived sizes add their parameters.'),
    filename: S.string,
    mime: S.describe(S.string, 'Found in the content, never taken from the declared type or the name.'),
    size: S.integer,
    width: S.describe(
      S.nullableInteger,
      'As displayed (EXIF orientation applied); null for files that are not images.',
    ),
    height: S.nullableInteger,
    focal: { type: ['object', 'null'], additionalProperties: true, properties: { x: S.number, y: S.number } },
    alt: S.mapOf(S.string, 'Per locale.'),
    title: S.mapOf(S.string, 'Per locale.'),
    credit: S.nullableString,
    color: S.describe(S.nullableString, 'The average colour, `#rrggbb`.'),
    placeholder: S.describe(S.nullableString, 'A WebP of at most 16 × 16 pixels as a `data:` URL.'),
  },
  ['id', 'url', 'filename', 'mime', 'size'],
);

export const assetBody = object({ asset: managedAsset, cv: S.cv });

/** The parts of an asset upload: text parts first, the file last. */
export const assetUpload = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          alt: S.describe(S.string, 'JSON object of one text per locale: `{"en":"A bridge"}`.'),
          title: S.describe(S.string, 'JSON object of one text per locale, like `alt`.'),
          credit: S.describe(S.string, 'Plain text (blank: none).'),
          focal: S.describe(S.string, '`x,y`: fractions of width and height from 0 to 1.'),
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The file, last; at most 50 MB.',
          },
        },
      },
    },
  },
};
