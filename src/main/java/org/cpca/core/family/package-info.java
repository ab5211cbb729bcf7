/**
 * The seam every method family plugs into (docs/architecture.md, "How to add a family"):
 * a {@link org.cpca.core.family.Family} declares its own settings once, as {@link
 * org.cpca.core.family.OptionKeys} that parse the user's text into one immutable,
 * validated options value, each key with its dialog field ({@link
 * org.cpca.core.family.KeyField}: label, default, range, choices; the shared settings'
 * in {@link org.cpca.core.family.SharedKeyFields}), and runs on a {@link
 * org.cpca.core.family.FamilyInput}. The
 * families sit above this package and below {@code core.run}, whose registry
 * ({@code Families}) lists them all; {@link org.cpca.core.family.Choice} is the automatic
 * / given / ∞ value of α, β and a kernel's γ, and {@link org.cpca.core.family.Parse} the
 * parsers of plain numbers and flags that the settings share.
 */
package org.cpca.core.family;
