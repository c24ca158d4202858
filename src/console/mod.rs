//! The operator console (work in progress).

use crate::server::Server;
use std::sync::Arc;

/// Starts the console on stdin.
pub fn start(_server: &Arc<Server>) {}
