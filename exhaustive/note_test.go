package exhaustive

// The figures of NOTE.md's explorer section are computed by the tests and
// compared with the note (noteSectionNamed, noteRow, noteText): a test fails
// when the note and the code disagree.

const noteHeading = "## Exhaustive explorer (reference universe)"
