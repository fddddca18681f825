// Package resumetest holds the checks that every resumable method's tests
// share (embed.Info.Resumable: a fit given Options.Checkpoint keeps its
// state and goes on from it), so that each method is held to the same
// contract in the same way:
//
//   - Fit.Resumes: a fit cut short (cancelled, or crashed, taking the file
//     it held at that moment) and started again from its checkpoint is the
//     uninterrupted fit, bit for bit (embedding, trace, epochs, stop
//     reason), and it reports its epochs from where it stood;
//   - Fit.RefusesOthers: a checkpoint written for another fit, another
//     dimension, or standing where this fit's epochs have no batch, is
//     refused with an error naming the file;
//   - Fit.FailedWriteOnCancel: a fit cancelled where its checkpoint cannot
//     be written ends cut short, not failed, with an error naming the file.
//
// Context cuts a fit short between two of its batches, and nowhere else.
// The package is for tests: it imports package testing.
package resumetest
