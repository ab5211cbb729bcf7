/**
 * The spectral clustering of a selection grid and the medoid choice that the automatic
 * α, β and (γ, α) selections share ({@link org.cpca.core.selection.SpectralChoice}).
 */
package org.cpca.core.selection;
