#pragma once
// SIGINT and SIGTERM: the run stops at once, every partial output file is removed (finished files
// and a tree's journal stay, so --resume goes on from them), one line says so, and the process
// ends by the signal (exit status 128 + signal number in a shell).
namespace dumpcmp::cli {

void remove_partial_files_on_interrupt();

}  // namespace dumpcmp::cli
