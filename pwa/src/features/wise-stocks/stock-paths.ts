export const STOCKS_PATH = '/dashboard/all-wise-stocks';
export const ADD_STOCK_PATH = '/dashboard/add-wise-stocks';
export const stockDetailsPath = (id: string) => `/dashboard/wise-stocks/${id}`;
export const IMPORT_STOCK_PATH = '/dashboard/import-wise-stocks';
