import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { pageLoaded, preloadOnIntent } from './app/router';
// Ant Design's rules first (see app/provider.tsx), so that the shop's own override them.
import 'antd/dist/antd.css';
import './app/shop.css';

// The page the app opens on has been loading since the boot script ran; the others load when a
// link to them is pointed at. The app is drawn once the opening page's code is there (it comes
// beside the frame's, and is seldom later): drawn before, the frame would show the page's empty
// fallback first, and React would hold the page back for its fallback throttle (app/router.tsx).
preloadOnIntent();
void pageLoaded(window.location.pathname).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
