/**
 * ImageJ images ⇄ sample matrices: slices or pixels as samples, masks and ROIs, binning,
 * TIFF reading and writing, and components back to eigen-images.
 */
package org.cpca.image;
