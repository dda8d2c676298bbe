// Light and dark themes: the system's choice (prefers-color-scheme) unless the user picked one,
// which is kept in localStorage and set as data-theme on <html> (the CSS reads it).
const storageKey = 'sightline.theme';

export function storedTheme() {
  const value = localStorage.getItem(storageKey);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyStoredTheme() {
  setTheme(storedTheme());
}

export function setTheme(theme) {
  if (theme === 'system') {
    localStorage.removeItem(storageKey);
    delete document.documentElement.dataset.theme;
  } else {
    localStorage.setItem(storageKey, theme);
    document.documentElement.dataset.theme = theme;
  }
}

/** The theme actually shown, for charts that draw their own colours. */
export function effectiveTheme() {
  const chosen = storedTheme();
  if (chosen !== 'system') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
