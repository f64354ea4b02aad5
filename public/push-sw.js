/* global clients */
// Web push in the service worker (decision 067), imported by the generated sw.js (workbox importScripts).
// A message is JSON {title, body, url, tag} encrypted by the server to this subscription's keys; the
// browser decrypts it before this runs. A click focuses an open tab of the app on the order, or opens one.

self.addEventListener('push', (event) => {
  const read = () => {
    try {
      return event.data ? event.data.json() : {};
    } catch {
      return { body: event.data ? event.data.text() : '' };
    }
  };
  const message = read();
  const title = typeof message.title === 'string' && message.title ? message.title : 'Digital Services Hub';
  // A path of this site only: `//host` and `/\host` are other sites to a URL parser.
  const url = typeof message.url === 'string' && /^\/(?![/\\])/.test(message.url) ? message.url : '/';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/pwa-192.png',
      badge: '/pwa-192.png',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const asked = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  const url = asked.origin === self.location.origin ? asked.href : new URL('/', self.location.origin).href;
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
          return client.focus().then((focused) => (focused && 'navigate' in focused ? focused.navigate(url) : undefined));
        }
      }
      return clients.openWindow(url);
    }),
  );
});
