/**
 * The JSON model file ({@link org.cpca.core.modelfile.ModelFile}): every family's fitted
 * models written and read back, above the families so that the model types below need not
 * know each other. See docs/math/conventions.md.
 */
package org.cpca.core.modelfile;
