// A small history router: the path is a signal; a one-shot message travels with a navigation.
import { signal } from '@preact/signals';

export const currentPath = signal(location.pathname);
export const flashMessage = signal<string | undefined>(undefined);

export function navigate(path: string, options: { replace?: boolean; message?: string | undefined } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  flashMessage.value = options.message;
  currentPath.value = location.pathname;
}

addEventListener('popstate', () => {
  flashMessage.value = undefined;
  currentPath.value = location.pathname;
});
