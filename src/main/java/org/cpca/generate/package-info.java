/**
 * The synthetic test-image generator (digits on a grass-like texture; the bundled test
 * images).
 */
package org.cpca.generate;
