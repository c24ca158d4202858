//! The `goserver` binary: parses options, starts logging, installs the shutdown
//! trigger, binds the listeners, starts the console and runs the server.

use clap::{CommandFactory, FromArgMatches};
use goserver::cli::{Command, Options};
use goserver::results::Results;
use goserver::server::{Protocol, Server};
use goserver::settings::Settings;
use goserver::shutdown::Shutdown;
use goserver::web::Web;
use goserver::{console, logging};
use std::net::TcpListener;
use std::process::ExitCode;

fn main() -> ExitCode {
    let options = parse_options();
    match &options.command {
        Some(Command::Check(check)) => return goserver::check::main(check),
        Some(Command::Play(play)) => return goserver::play::main(play),
        None => {}
    }
    if let Err(e) = logging::init(options.log_level.filter(), options.log_file.as_deref()) {
        eprintln!("goserver: {e}");
        return ExitCode::from(CONFIGURATION_ERROR);
    }
    // A panic anywhere is logged, not printed over the console prompt; a panic in a
    // game loop ends only that game (see frontend::go::table).
    std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
    let status = run(&options);
    // Log lines are written by threads of their own: let the last ones out.
    logging::flush(logging::FLUSH_AT_EXIT);
    status
}

/// The command line, with `goserver check --help` listing the suites' sections.
fn parse_options() -> Options {
    let command = Options::command().mut_subcommand("check", |check| {
        check.after_help(goserver::check::sections_help())
    });
    let matches = command.get_matches();
    Options::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// The exit status when a flag or a file named by one cannot be used (clap's own
/// usage errors exit with it too).
const CONFIGURATION_ERROR: u8 = 2;

/// Configures and runs the server until it stops; returns the exit status.
fn run(options: &Options) -> ExitCode {
    raise_file_limit();
    let (settings, listeners, web_listener) = match configure(options) {
        Ok(configured) => configured,
        Err(e) => {
            log::error!("{e}");
            return ExitCode::from(CONFIGURATION_ERROR);
        }
    };
    // The standings are rebuilt from the results file before anyone can play.
    let results = match &options.results {
        Some(path) => match Results::open(path) {
            Ok(results) => results,
            Err(e) => {
                log::error!("{e}");
                return ExitCode::from(CONFIGURATION_ERROR);
            }
        },
        None => Results::in_memory(),
    };
    let shutdown = Shutdown::new();
    {
        let shutdown = shutdown.clone();
        if let Err(e) = ctrlc::set_handler(move || shutdown.trigger()) {
            log::warn!("cannot handle SIGINT/SIGTERM: {e}");
        }
    }
    let server = Server::with_results(settings, shutdown, results);
    let running = match server.start(listeners) {
        Ok(running) => running,
        Err(e) => {
            log::error!("server error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The web board is a view over the front ends, started once they serve.
    let web = match web_listener.map(|listener| Web::start(&server, listener)) {
        Some(Ok(web)) => Some(web),
        Some(Err(e)) => {
            log::error!("cannot start the web board: {e}");
            server.shutdown.trigger();
            None
        }
        None => None,
    };
    // Last, so that its first answer already knows every port. Restores the terminal
    // when main returns, however the shutdown came.
    let _terminal = (!options.no_console).then(|| console::start(&server));
    running.until_shutdown(|deadline| {
        if let Some(web) = &web {
            web.stop(deadline);
        }
    });
    ExitCode::SUCCESS
}

/// The settings the options ask for, a bound listener for each front end, and the
/// web board's listener unless it is off.
///
/// # Errors
///
/// A flag that cannot be honoured (a password file that cannot be read, ...), or an
/// address that cannot be bound.
fn configure(options: &Options) -> Result<Configured, String> {
    let mut settings = options.settings();
    settings.arena = options.arena_settings()?;
    let ports = options.ports()?;
    // The Bkgo flags (a password file to read) matter only when the room is served.
    if ports
        .iter()
        .any(|&(protocol, _)| protocol == Protocol::Bkgo)
    {
        settings.bkgo = options.bkgo_settings()?;
    }
    let listeners = bind(&options.host, &ports)?;
    let web = match options.web_port()? {
        Some(port) => Some(
            TcpListener::bind((options.host.as_str(), port)).map_err(|e| {
                format!(
                    "cannot listen on {}:{port}: {e} (the web board's port)",
                    options.host
                )
            })?,
        ),
        None => None,
    };
    Ok((settings, listeners, web))
}

/// What [`configure`] makes: the settings, the front ends' listeners, the web's.
type Configured = (Settings, Vec<(Protocol, TcpListener)>, Option<TcpListener>);

/// Binds a listener for each front end on `host`, in the order given.
///
/// # Errors
///
/// The first address that cannot be bound, and why.
fn bind(
    host: &str,
    front_ends: &[(Protocol, u16)],
) -> Result<Vec<(Protocol, TcpListener)>, String> {
    front_ends
        .iter()
        .map(|&(protocol, port)| {
            TcpListener::bind((host, port))
                .map(|listener| (protocol, listener))
                .map_err(|e| {
                    format!("cannot listen on {host}:{port}: {e} (the {protocol} front end's port)")
                })
        })
        .collect()
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
