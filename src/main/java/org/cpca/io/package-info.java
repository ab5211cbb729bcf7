/**
 * Files in, results folder out, shared by every front end: images, folders of images and
 * CSV tables read into datasets or streams ({@link LoadedData}, {@link
 * TableInput}), and the results folder (summary, scores, models, eigen-
 * images, plots) written as one set ({@link Results}, {@link
 * OutputFolder}).
 */
package org.cpca.io;
