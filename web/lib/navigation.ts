// Route changes from code outside React (the API client, the session timer) through the router's navigate.
/**
 * Lets code outside React (the API client, the session timer) change the route. The app
 * registers the router's navigate at start-up; before that a full page load is used.
 */
type Navigate = (path: string) => void;

let navigator: Navigate = (path) => window.location.assign(path);

/** Registers the router's navigate function (called once from App.tsx). */
export function setNavigator(navigate: Navigate): void {
  navigator = navigate;
}

/** Navigates to an in-app path such as `/` or `/maintenance`. */
export function navigateTo(path: string): void {
  navigator(path);
}
