# workerd's configuration for the everything server as a Worker module (see worker.js). The socket's address is
# given on the command line (--socket-addr http=127.0.0.1:PORT) and LOCAL_PORT in the environment, by
# src/runtimes/runtime-servers.ts.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .everything) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const everything :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "2026-01-01",
  bindings = [
    (name = "LOCAL_ADDRESS", text = "127.0.0.1"),
    (name = "LOCAL_PORT", fromEnvironment = "LOCAL_PORT"),
  ],
);
