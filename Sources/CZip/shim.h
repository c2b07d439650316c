// libzip (its header): not linked, the functions are CZipOnUse's, which load libzip on the first call.
#include <zip.h>
