// Package release holds the test that keeps the install and pin
// instructions of the repository's documents true for what is published:
// while no version of the repository's modules is tagged, no document
// tells a user to install or build one "@latest" (from the module proxy,
// which serves nothing of them); the README says how a team pins today;
// RELEASING.md gives the tags in their order. RELEASING.md says what else
// is checked before a tag.
package release
