/**
 * Audit actions emitted under another registered event name, declared by resources
 * (`create.event`) as resource.ts defines them and read by the event registry: its own module,
 * so that the registry and the kit do not import each other.
 */
export const ACTION_ALIASES: Record<string, string> = {};
