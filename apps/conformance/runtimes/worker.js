// The everything server as a Worker module (workerd, Cloudflare Workers). The handler is made on the first request:
// Workers allow no timers or I/O at module scope. `LOCAL_ADDRESS` and `LOCAL_PORT` (text bindings) name the socket
// workerd listens on, for the handler's `Host` check.
import { everythingHandler } from './everything-handler.js';

let serve;
export default {
  fetch(request, env) {
    serve ??= everythingHandler({ localAddress: env.LOCAL_ADDRESS, localPort: Number(env.LOCAL_PORT) }, (error) =>
      console.error('handler error:', error),
    );
    return serve(request);
  },
};
