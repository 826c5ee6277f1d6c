// Package num formats counts the one way every report, golden file and
// generated document writes them, so a figure printed by a command and the
// same figure pinned by a test compare byte for byte.
package num
