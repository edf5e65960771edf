// Ant Design in Chinese with the shop's theme, its message/modal context, and TanStack Query.
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // The client has told the buyer already; retrying a refusal would only repeat it. A request
      // superseded by another to the same address is asked again.
      retry: (count, error) => (!(error instanceof ApiError) || error.kind === 'cancelled') && count < 1,
    },
  },
});

const THEME = {
  token: {
    colorPrimary: '#11845b',
    colorError: '#e4393c',
    colorLink: '#11845b',
    fontSize: 14,
    borderRadius: 4,
    fontFamily: '"PingFang SC", "Microsoft YaHei", "Hiragino Sans GB", "Noto Sans CJK SC", sans-serif',
  },
};

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
