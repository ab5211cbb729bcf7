/**
 * An analysis of open ImageJ images, shared by the Fiji commands and the macro
 * extension so that both give the same results: the request ({@link
 * org.cpca.analysis.AnalysisRequest}: images, where the background comes from, the
 * {@link org.cpca.core.run.Settings}), the images as datasets ({@code ImageDatasets}),
 * the run ({@link org.cpca.analysis.Analysis}) and its views ({@link
 * org.cpca.analysis.AnalysisViews}: eigen-images, plots, tables); also applying a saved
 * model, the α explorer's state, online cPCA* on open images or folders, the full
 * spectrum for the scree plot, the memory of the outputs checked before they are made,
 * and ImageJ's progress bar and Esc. No mathematics here and no front end: commands and macros call it.
 */
package org.cpca.analysis;
