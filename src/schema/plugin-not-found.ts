/** The 404 body of an unknown plugin: a JSON string, exactly as LeakIX's service sends it (no TypeBox here: the client imports it). */
export const PLUGIN_NOT_FOUND = 'Plugin not found'
