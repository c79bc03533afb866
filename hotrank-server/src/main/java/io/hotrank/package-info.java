/**
 * The hotrank service. Each sub-package is one capability or one shared part, and says in its
 * package notes what it owns:
 *
 * <ul>
 *   <li>capabilities, each with its HTTP, storage, errors and settings inside: {@code item}, {@code
 *       event}, {@code board} (with {@code board.publish}, {@code board.compute}, {@code
 *       board.read}), {@code ops};
 *   <li>shared parts, which know no capability: {@code problem} (the error model), {@code web} (the
 *       problem renderer and admin auth), {@code storage} (SQL dialects), {@code cache} (guarded
 *       Redis reads, tiered loading), {@code time} (clock and ticker), {@code embedded} (the
 *       embedded default).
 * </ul>
 *
 * A new capability adds a package beside these: its controller, its store per table, its {@code
 * HotrankException} subclasses (one per refusal, each describing its problem) and one
 * {@code @ConfigurationProperties} record for its prefix. {@code ModuleBoundariesTest} keeps the
 * dependencies acyclic and layered.
 */
@NullMarked
package io.hotrank;

import org.jspecify.annotations.NullMarked;
