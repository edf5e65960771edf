import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadOnIntent, preloadPage } from './app/router';
// Ant Design's rules first (see app/provider.tsx), so that the shop's own override them.
import 'antd/dist/antd.css';
import './app/shop.css';

// The page the app opens on starts loading now, beside the frame; the others when a link to
// them is pointed at.
preloadPage(window.location.pathname);
preloadOnIntent();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
