//! The `goserver` binary: parses options, starts logging, installs the shutdown
//! trigger, binds the listeners, starts the console and runs the server.

use clap::Parser;
use goserver::cli::Options;
use goserver::server::{Protocol, Server};
use goserver::shutdown::Shutdown;
use goserver::{console, logging};
use std::net::TcpListener;
use std::process::ExitCode;

fn main() -> ExitCode {
    let options = Options::parse();
    if let Err(e) = logging::init(options.log_level.filter(), options.log_file.as_deref()) {
        eprintln!("goserver: {e}");
        return ExitCode::FAILURE;
    }
    // A panic anywhere is logged, not printed over the console prompt; a panic in a
    // game loop ends only that game (see frontend::go::table).
    std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
    raise_file_limit();
    let listener = match TcpListener::bind((options.host.as_str(), options.port)) {
        Ok(listener) => listener,
        Err(e) => {
            log::error!("cannot listen on {}:{}: {e}", options.host, options.port);
            return ExitCode::FAILURE;
        }
    };
    let shutdown = Shutdown::new();
    {
        let shutdown = shutdown.clone();
        if let Err(e) = ctrlc::set_handler(move || shutdown.trigger()) {
            log::warn!("cannot handle SIGINT/SIGTERM: {e}");
        }
    }
    let server = Server::new(options.settings(), shutdown);
    // Restores the terminal when main returns, however the shutdown came.
    let _terminal = (!options.no_console).then(|| console::start(&server));
    match server.serve(vec![(Protocol::Go, listener)]) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("server error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Raises the open-file limit to its hard maximum: each client is a socket.
fn raise_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed in.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                log::warn!("cannot raise the open-file limit");
            }
        }
    }
}
