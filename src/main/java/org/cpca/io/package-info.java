/**
 * Files in, results folder out, shared by every front end: images, folders of images and
 * CSV tables read into datasets or streams ({@link org.cpca.io.LoadedData}, {@link
 * org.cpca.io.TableInput}), and the results folder (summary, scores, models, eigen-
 * images, plots) written as one set ({@link org.cpca.io.Results}, {@link
 * org.cpca.io.OutputFolder}).
 */
package org.cpca.io;
