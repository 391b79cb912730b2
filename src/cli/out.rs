//! Writing to stdout and stderr for the commands: when the reader closes the pipe early
//! (`deckspec test | head -1`), the program ends quietly, as Unix tools do, instead of panicking.

use std::io::Write;

/// The exit status when the output's reader went away: what a shell reports for a Unix tool
/// ended by SIGPIPE (128 + 13).
pub const EXIT_PIPE_CLOSED: i32 = 141;

/// Where text goes.
#[derive(Clone, Copy)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// Write `args` to `stream`. A closed pipe ends the program with `EXIT_PIPE_CLOSED`; any other
/// write error (a full disk behind a redirect) ends it with `EXIT_BROKEN`, said on stderr if
/// stderr still works.
pub fn write(stream: Stream, args: std::fmt::Arguments) {
    let written = match stream {
        Stream::Stdout => std::io::stdout().lock().write_fmt(args),
        Stream::Stderr => std::io::stderr().lock().write_fmt(args),
    };
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(EXIT_PIPE_CLOSED);
        }
        if let Stream::Stdout = stream {
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
        }
        std::process::exit(super::EXIT_BROKEN);
    }
}

/// Like `print!`, ending quietly when the reader has gone.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write($crate::cli::out::Stream::Stdout, format_args!($($arg)*))
    };
}

/// Like `println!`, ending quietly when the reader has gone.
macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => {
        $crate::cli::out::write(
            $crate::cli::out::Stream::Stdout,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Like `eprint!`, ending quietly when the reader has gone.
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::cli::out::write($crate::cli::out::Stream::Stderr, format_args!($($arg)*))
    };
}

/// Like `eprintln!`, ending quietly when the reader has gone.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::write(
            $crate::cli::out::Stream::Stderr,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}
