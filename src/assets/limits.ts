// Bounds on images, shared by ingest (probe) and the derivation pipeline.

/**
 * The most pixels an image may declare (width × height of its first frame): 16383², libvips' own default. A
 * larger declaration is refused from the header alone, before any pixel is decoded, so a 1 KB PNG that claims
 * 100,000 × 100,000 pixels (a decompression bomb) costs nothing. Cameras top out near 100 MP.
 */
export const MAX_IMAGE_PIXELS = 16383 * 16383;

/** The widest derived image, the top of the width ladder (spec 2.3 rule 3). */
export const MAX_DERIVED_WIDTH = 3840;
