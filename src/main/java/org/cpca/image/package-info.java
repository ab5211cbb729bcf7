/**
 * ImageJ images ⇄ sample matrices: slices or pixels as samples, masks and ROIs, binning,
 * TIFF reading and writing, and components back to eigen-images. {@link
 * StackReader} is the one reader of slices as samples that every front end
 * uses (docs/architecture.md).
 */
package org.cpca.image;
