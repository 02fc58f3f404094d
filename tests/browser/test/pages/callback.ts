/** The redirect URI's page, in the login popup: hands the authorization response back to the app's page. */
import { completePopupAuthorization } from '@wiremcp/auth/client';

document.body.textContent = completePopupAuthorization() ? 'Signed in; this window closes.' : 'Nothing to hand back.';
