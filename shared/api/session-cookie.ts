/** The cookie of a login session: set by login.do, read by authentication, named by the WAF and the API document. */
export const SESSION_COOKIE = 'dl_session';
